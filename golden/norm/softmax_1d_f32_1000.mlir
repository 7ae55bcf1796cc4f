entry @softmax_1d_f32_1000(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xf32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(1024), padding_value = neg_inf, tensor_view<1000xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(1024), padding_value = neg_inf, tensor_view<1000xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token
  %9 = iota : tile<1024xi32>
  %10 = constant <i32: 1024> : tile<i32>
  %11 = muli %1, %10 : tile<i32>
  %12 = reshape %11 : tile<i32> -> tile<1xi32>
  %13 = broadcast %12 : tile<1xi32> -> tile<1024xi32>
  %14 = addi %9, %13 : tile<1024xi32>
  %15 = constant <i32: 1000> : tile<1024xi32>
  %16 = cmpi less_than %14, %15, signed : tile<1024xi32> -> tile<1024xi1>
  %17 = constant <f32: 0xFF800000> : tile<1024xf32>
  %18 = select %16, %7, %17 : tile<1024xi1>, tile<1024xf32>
  %19 = reduce %18 dim=0 identities=[0xFF800000 : f32] : tile<1024xf32> -> tile<f32> 
  (%20: tile<f32>, %21: tile<f32>) {
    %22 = maxf %20, %21 : tile<f32>
    yield %22 : tile<f32>
  }
  %23 = reshape %19 : tile<f32> -> tile<1xf32>
  %24 = broadcast %23 : tile<1xf32> -> tile<1024xf32>
  %25 = subf %18, %24  : tile<1024xf32>
  %26 = exp %25  : tile<1024xf32>
  %27 = constant <f32: 0.000000e+00> : tile<1024xf32>
  %28 = select %16, %26, %27 : tile<1024xi1>, tile<1024xf32>
  %29 = reduce %28 dim=0 identities=[0.000000e+00 : f32] : tile<1024xf32> -> tile<f32> 
  (%30: tile<f32>, %31: tile<f32>) {
    %32 = addf %30, %31  : tile<f32>
    yield %32 : tile<f32>
  }
  %33 = reshape %29 : tile<f32> -> tile<1xf32>
  %34 = broadcast %33 : tile<1xf32> -> tile<1024xf32>
  %35 = divf %26, %34  : tile<1024xf32>
  %36 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %37 = make_tensor_view %36, shape = [1000], strides = [1] : tensor_view<1000xf32, strides=[1]>
  %38 = make_partition_view %37 : partition_view<tile=(1024), padding_value = zero, tensor_view<1000xf32, strides=[1]>>
  %39 = store_view_tko weak %35, %38[%1] token = %8 : tile<1024xf32>, partition_view<tile=(1024), padding_value = zero, tensor_view<1000xf32, strides=[1]>>, tile<i32> -> token
  return
}
