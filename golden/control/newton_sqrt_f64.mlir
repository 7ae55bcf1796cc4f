entry @newton_sqrt_f64(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f64>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [1024], strides = [1] : tensor_view<1024xf64, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(256), padding_value = zero, tensor_view<1024xf64, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<1024xf64, strides=[1]>>, tile<i32> -> tile<256xf64>, token
  %9 = constant <i32: 0> : tile<i32>
  %10 = constant <f64: 5.000000e-01> : tile<256xf64>
  %11 = mulf %7, %10  : tile<256xf64>
  %12 = addf %11, %10  : tile<256xf64>
  %13 = loop iter_values(%14 = %9, %15 = %12) : tile<i32>, tile<256xf64> -> tile<256xf64> {
    %16 = divf %7, %15  : tile<256xf64>
    %17 = addf %15, %16  : tile<256xf64>
    %18 = mulf %10, %17  : tile<256xf64>
    %19 = subf %18, %15  : tile<256xf64>
    %20 = absf %19 : tile<256xf64>
    %21 = reduce %20 dim=0 identities=[0xFFF0000000000000 : f64] : tile<256xf64> -> tile<f64> 
    (%22: tile<f64>, %23: tile<f64>) {
      %24 = maxf %22, %23 : tile<f64>
      yield %24 : tile<f64>
    }
    %25 = constant <f64: 1.000000e-15> : tile<f64>
    %26 = reduce %18 dim=0 identities=[0xFFF0000000000000 : f64] : tile<256xf64> -> tile<f64> 
    (%27: tile<f64>, %28: tile<f64>) {
      %29 = maxf %27, %28 : tile<f64>
      yield %29 : tile<f64>
    }
    %30 = mulf %25, %26  : tile<f64>
    %31 = cmpf less_than_or_equal ordered %21, %30 : tile<f64> -> tile<i1>
    %32 = constant <i32: 64> : tile<i32>
    %33 = cmpi greater_than_or_equal %14, %32, signed : tile<i32> -> tile<i1>
    %34 = ori %31, %33 : tile<i1>
    if %34 {
      break %18 : tile<256xf64>
    } else {
    }
    %35 = constant <i32: 1> : tile<i32>
    %36 = addi %14, %35 : tile<i32>
    continue %36, %18 : tile<i32>, tile<256xf64>
  }
  %37 = assume div_by<16>, %arg1 : tile<ptr<f64>>
  %38 = make_tensor_view %37, shape = [1024], strides = [1] : tensor_view<1024xf64, strides=[1]>
  %39 = make_partition_view %38 : partition_view<tile=(256), padding_value = zero, tensor_view<1024xf64, strides=[1]>>
  %40 = store_view_tko weak %13, %39[%1] token = %8 : tile<256xf64>, partition_view<tile=(256), padding_value = zero, tensor_view<1024xf64, strides=[1]>>, tile<i32> -> token
  return
}
