entry @rmsnorm_f32_pad(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>, %arg2: tile<ptr<f32>>, %arg3: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [128, 100], strides = [100, 1] : tensor_view<128x100xf32, strides=[100,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x100xf32, strides=[100,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x100xf32, strides=[100,1]>>, tile<i32> -> tile<16x128xf32>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %10 = make_tensor_view %9, shape = [1, 100], strides = [100, 1] : tensor_view<1x100xf32, strides=[100,1]>
  %11 = make_partition_view %10 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x100xf32, strides=[100,1]>>
  %12 = constant <i32: 0> : tile<i32>
  %13, %14 = load_view_tko weak %11[%12, %2] token = %8 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x100xf32, strides=[100,1]>>, tile<i32> -> tile<1x128xf32>, token
  %15 = assume div_by<16>, %arg2 : tile<ptr<f32>>
  %16 = make_tensor_view %15, shape = [1, 100], strides = [100, 1] : tensor_view<1x100xf32, strides=[100,1]>
  %17 = make_partition_view %16 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x100xf32, strides=[100,1]>>
  %18, %19 = load_view_tko weak %17[%12, %2] token = %14 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x100xf32, strides=[100,1]>>, tile<i32> -> tile<1x128xf32>, token
  %20 = iota : tile<128xi32>
  %21 = reshape %20 : tile<128xi32> -> tile<1x128xi32>
  %22 = constant <i32: 128> : tile<i32>
  %23 = muli %2, %22 : tile<i32>
  %24 = reshape %23 : tile<i32> -> tile<1x1xi32>
  %25 = broadcast %24 : tile<1x1xi32> -> tile<1x128xi32>
  %26 = addi %21, %25 : tile<1x128xi32>
  %27 = constant <i32: 100> : tile<1x128xi32>
  %28 = cmpi less_than %26, %27, signed : tile<1x128xi32> -> tile<1x128xi1>
  %29 = broadcast %28 : tile<1x128xi1> -> tile<16x128xi1>
  %30 = mulf %7, %7  : tile<16x128xf32>
  %31 = constant <f32: 0.000000e+00> : tile<16x128xf32>
  %32 = select %29, %30, %31 : tile<16x128xi1>, tile<16x128xf32>
  %33 = reduce %32 dim=1 identities=[0.000000e+00 : f32] : tile<16x128xf32> -> tile<16xf32> 
  (%34: tile<f32>, %35: tile<f32>) {
    %36 = addf %34, %35  : tile<f32>
    yield %36 : tile<f32>
  }
  %37 = reshape %33 : tile<16xf32> -> tile<16x1xf32>
  %38 = constant <i32: 100> : tile<i32>
  %39 = subi %38, %23 : tile<i32>
  %40 = maxi %39, %12 signed : tile<i32>
  %41 = mini %40, %22 signed : tile<i32>
  %42 = itof %41 signed  : tile<i32> -> tile<f32>
  %43 = reshape %42 : tile<f32> -> tile<1x1xf32>
  %44 = broadcast %43 : tile<1x1xf32> -> tile<16x1xf32>
  %45 = divf %37, %44  : tile<16x1xf32>
  %46 = constant <f32: 9.99999974E-6> : tile<16x1xf32>
  %47 = addf %45, %46  : tile<16x1xf32>
  %48 = rsqrt %47 : tile<16x1xf32>
  %49 = broadcast %48 : tile<16x1xf32> -> tile<16x128xf32>
  %50 = mulf %7, %49  : tile<16x128xf32>
  %51 = broadcast %13 : tile<1x128xf32> -> tile<16x128xf32>
  %52 = mulf %50, %51  : tile<16x128xf32>
  %53 = assume div_by<16>, %arg3 : tile<ptr<f32>>
  %54 = make_tensor_view %53, shape = [128, 100], strides = [100, 1] : tensor_view<128x100xf32, strides=[100,1]>
  %55 = make_partition_view %54 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x100xf32, strides=[100,1]>>
  %56 = store_view_tko weak %52, %55[%1, %2] token = %19 : tile<16x128xf32>, partition_view<tile=(16x128), padding_value = zero, tensor_view<128x100xf32, strides=[100,1]>>, tile<i32> -> token
  return
}
